// The console walk's staff, added with the operator command (`pnpm --filter @store/core staff add`)
// on the e2e store's embedded database before the store starts, as an operator adds the first
// owner. What the command prints, the otpauth:// URI, is kept beside the database for the walk to
// compute its codes from. Run by the Playwright web server's command; a store reused from an earlier
// run keeps the staff it has.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR names the e2e store’s embedded database.');

const STAFF_FILE = 'console-staff.json';
const file = path.join(dataDir, STAFF_FILE);
const corePackage = JSON.parse(readFileSync(path.join(repoRoot, 'packages/core/package.json'), 'utf8'));

if (existsSync(file)) {
  console.log(`seed-staff: ${file} exists; keeping its staff.`);
} else if (!corePackage.scripts?.staff) {
  // Without the command there is no console to walk; admin-console.spec says so and fails.
  console.warn('seed-staff: @store/core has no staff command; the console walk cannot sign in.');
} else {
  const password = 'Console-walk-pass-1';
  const staff = {};
  for (const role of ['owner', 'support']) {
    const email = `${role}@console.example.com`;
    const printed = execFileSync(
      'pnpm',
      ['--silent', '--filter', '@store/core', 'staff', 'add', '--email', email, '--role', role, '--password', password],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir }, encoding: 'utf8' },
    );
    const otpauth = printed.match(/otpauth:\/\/\S+/)?.[0];
    if (!otpauth) throw new Error(`staff add printed no otpauth:// URI for ${email}`);
    staff[role] = { email, password, otpauth };
  }
  writeFileSync(file, `${JSON.stringify(staff, null, 2)}\n`);
  console.log(`seed-staff: added ${Object.keys(staff).join(' and ')}.`);
}
