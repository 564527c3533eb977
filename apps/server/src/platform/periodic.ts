import type { FastifyBaseLogger } from 'fastify';

/**
 * A job every server runs every `intervalMs` (the uploads' sweep, the SMS outbox): one run at a time (a tick
 * while one runs is skipped), its failure logged under `name`, the timer unref'd (it never keeps a process
 * alive), and a run under way awaited by `stop()`.
 */
export function runPeriodically(
  name: string,
  intervalMs: number,
  run: () => Promise<unknown>,
  log: FastifyBaseLogger,
): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = run()
      .catch((err) => log.error({ err }, name))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
