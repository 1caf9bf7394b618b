/** A task run on an interval; `stop` ends the ticks and waits for the run in flight. */
export interface Repeating {
  stop(): Promise<void>;
}

/**
 * Runs `run` now and then every `intervalMs`, as the sweeps do. A tick never overlaps the previous
 * run (it is skipped while one is in flight); a run that fails goes to `onError` and is tried again
 * at the next tick. `run` is told whether `stop` was called, to end a long run early.
 */
export function repeatEvery(
  intervalMs: number,
  run: (isStopped: () => boolean) => Promise<void>,
  onError: (error: unknown) => void,
): Repeating {
  let current: Promise<void> | undefined;
  let stopped = false;
  const isStopped = () => stopped;
  const tick = () => {
    if (current) return;
    current = run(isStopped)
      .catch(onError)
      .finally(() => {
        current = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
