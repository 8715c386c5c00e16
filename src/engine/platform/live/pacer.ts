/** Paces requests per host: at most `perSecond` request starts a second to each host. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export class HostPacer {
  private readonly intervalMs: number;
  /** The earliest time each host may be asked again. */
  private readonly nextSlot = new Map<string, number>();

  constructor(
    perSecond: number,
    private readonly now: () => number = Date.now,
    private readonly sleep: Sleep = realSleep,
  ) {
    this.intervalMs = perSecond > 0 ? 1000 / perSecond : 0;
  }

  /** Waits for the host's next slot and takes it (slots are handed out in call order). */
  async take(host: string, signal?: AbortSignal): Promise<void> {
    const now = this.now();
    const slot = Math.max(now, this.nextSlot.get(host) ?? 0);
    this.nextSlot.set(host, slot + this.intervalMs);
    if (slot > now) await this.sleep(slot - now, signal);
  }

  /** Keeps a host quiet until `untilMs` (a refusal's cool-down). */
  holdUntil(host: string, untilMs: number): void {
    this.nextSlot.set(host, Math.max(this.nextSlot.get(host) ?? 0, untilMs));
  }
}
