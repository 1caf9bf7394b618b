import { rmSync } from 'node:fs';

/** Removes the run's throw-away database. */
export default function globalTeardown() {
  const dir = process.env.E2E_DATA_DIR;
  if (dir?.includes('giftstore-e2e-')) rmSync(dir, { recursive: true, force: true });
}
