/** Query parameters of Index that carry a token from an emailed link. */
export const EMAIL_LINK_PARAMS = ['accountToken', 'emailToken', 'passwordToken'] as const;
export type EmailLinkParam = (typeof EMAIL_LINK_PARAMS)[number];

export const hasEmailLink = (search: string) => {
  const params = new URLSearchParams(search);
  return EMAIL_LINK_PARAMS.some((name) => params.get(name));
};

/** The overlays on home that an emailed link opens. */
export const PASSWORD_RESET_PATH = '/password-reset/:token';
export const VERIFY_EMAIL_PATH = '/verify-email/:hashToken';
/** The link the address a change of email left gets: it undoes the change. */
export const EMAIL_CHANGE_UNDO_PATH = '/email-change-undo/:token';
