import { matchPath } from 'react-router-dom';

/** The pages only a signed-in customer sees; without a session they are Index. */
export const PROFILE_PATH = '/profile';
const PRIVATE_PATHS = [PROFILE_PATH];

export const isPrivatePath = (pathname: string) => PRIVATE_PATHS.some((path) => matchPath(path, pathname) !== null);
