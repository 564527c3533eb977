/**
 * Requests that come at the same moment, handled together: while one batch of a key is being handled, the
 * requests of that key that arrive wait, and the next batch takes them all (at most `max`). A lone request
 * is handled at once, as it would be without this; under load the batches grow by themselves, and the work
 * a batch shares (a transaction, its locks, each of its queries) is paid once for many requests.
 *
 * `run` answers each item of a batch with its result or its error, in order; an error of `run` itself is
 * every item's. A result may be a promise: the next batch starts once `run` has answered, while those
 * promises settle (a batch's rows written, its answers still being read).
 */
export function coalescing<T, R>(
  run: (items: T[]) => Promise<(R | Error | Promise<R>)[]>,
  { max = 64, inFlight = 1 }: { max?: number; inFlight?: number } = {},
): (key: string, item: T) => Promise<R> {
  interface Waiting {
    item: T;
    resolve: (r: R | PromiseLike<R>) => void;
    reject: (e: unknown) => void;
  }
  const queues = new Map<string, { waiting: Waiting[]; running: number }>();

  const drain = async (key: string, queue: { waiting: Waiting[]; running: number }) => {
    while (queue.waiting.length) {
      const batch = queue.waiting.splice(0, max);
      try {
        const results = await run(batch.map((w) => w.item));
        batch.forEach((w, i) => {
          const r = results[i];
          if (r instanceof Error) w.reject(r);
          else w.resolve(r);
        });
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    queue.running -= 1;
    if (!queue.running) queues.delete(key);
  };

  return (key, item) =>
    new Promise<R>((resolve, reject) => {
      let queue = queues.get(key);
      if (!queue) {
        queue = { waiting: [], running: 0 };
        queues.set(key, queue);
      }
      queue.waiting.push({ item, resolve, reject });
      if (queue.running < inFlight) {
        queue.running += 1;
        void drain(key, queue);
      }
    });
}
