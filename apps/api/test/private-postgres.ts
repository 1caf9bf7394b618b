import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@store/core/testing';

const run = promisify(execFile);

/** Where Debian's postgresql packages keep the server's programs, one folder per major version. */
const DEBIAN_VERSIONS = '/usr/lib/postgresql';

/**
 * The folder of initdb and pg_ctl: the one on the PATH, else the newest of Debian's packages (which
 * leave them off the PATH); undefined where PostgreSQL's server is not installed.
 */
export function postgresBinDir(): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(':')) {
    if (folder && existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'pg_ctl'))) return folder;
  }
  if (!existsSync(DEBIAN_VERSIONS)) return undefined;
  const newest = readdirSync(DEBIAN_VERSIONS)
    .filter((version) => existsSync(join(DEBIAN_VERSIONS, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest === undefined ? undefined : join(DEBIAN_VERSIONS, newest, 'bin');
}

export interface PrivatePostgres {
  /** The `postgres` database of this server, user `postgres`, no password. */
  url: string;
  /** Shuts the server down as a restart or a failover does: every session is ended, then it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port, with everything written before the stop. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL server of the test's own, in a temporary folder on a free port, for tests that need
 * the database to go away: never the shared one other tests use. PostgreSQL refuses to run as root,
 * so there it runs as the `postgres` user that the server's packages create.
 */
export async function startPrivatePostgres(binDir: string): Promise<PrivatePostgres> {
  const asUser =
    process.getuid?.() === 0
      ? {
          uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
          gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
        }
      : {};
  const folder = mkdtempSync(join(tmpdir(), 'store-postgres-'));
  if (asUser.uid !== undefined) chownSync(folder, asUser.uid, asUser.gid);
  const data = join(folder, 'data');
  const port = await freePort();
  const options = { ...asUser, cwd: folder };
  const pgCtl = (...args: string[]) => run(join(binDir, 'pg_ctl'), ['-D', data, ...args], options);

  await run(
    join(binDir, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    options,
  );
  // Durability is no concern of a throw-away server; its socket stays in its own folder.
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${folder}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'shared_buffers = 16MB',
      'max_connections = 40',
      '',
    ].join('\n'),
  );
  const start = async () => {
    await pgCtl('-l', join(folder, 'server.log'), '-w', 'start');
  };
  const stop = async () => {
    await pgCtl('-m', 'fast', '-w', 'stop');
  };
  await start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async destroy() {
      await pgCtl('-m', 'immediate', '-w', 'stop').catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
