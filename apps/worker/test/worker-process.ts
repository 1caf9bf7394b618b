import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const workerDir = fileURLToPath(new URL('..', import.meta.url));

/** A worker process started the way `pnpm --filter @store/worker start` does, its log kept. */
export interface WorkerProcess {
  child: ChildProcess;
  log: string[];
}

/**
 * Real worker processes for tests that kill them mid-job. `start` spawns one with the given
 * environment on top of the test's own; `killAll` (for `afterAll`) ends every one still running.
 */
export function createWorkerProcesses() {
  const workers: WorkerProcess[] = [];

  function start(env: Record<string, string | undefined>): WorkerProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: workerDir,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        // A dead worker's job is found stalled after a second, not after the default 30.
        JOB_LOCK_MS: '1000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker = { child, log: [] as string[] };
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => worker.log.push(...chunk.split('\n').filter(Boolean)));
    }
    workers.push(worker);
    return worker;
  }

  /** Sends `signal` and waits for the exit; a worker still running 10 s later is killed for good. */
  async function kill(worker: WorkerProcess, signal: NodeJS.Signals = 'SIGKILL') {
    const { child } = worker;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  async function killAll() {
    for (const worker of workers) await kill(worker);
  }

  return { start, kill, killAll };
}

/** The worker's JSON log lines, parsed; anything else it printed is left out. */
export function logEntries<Entry>(worker: WorkerProcess): Entry[] {
  return worker.log.flatMap((line) => {
    try {
      return [JSON.parse(line) as Entry];
    } catch {
      return [];
    }
  });
}
