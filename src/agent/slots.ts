/**
 * A fixed number of slots, handed out in the order they were asked for: it caps how many
 * subagents of one turn run at once (max-parallel-agents); the rest wait for one to end.
 */
export class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = Math.max(1, Math.floor(size));
  }

  /** A slot's release function, or null when the signal aborted first (nothing is then held). */
  async take(signal: AbortSignal): Promise<(() => void) | null> {
    if (signal.aborted) return null;
    if (this.free > 0) {
      this.free--;
      return this.releaser();
    }
    return new Promise((resolve) => {
      const granted = () => {
        signal.removeEventListener('abort', gaveUp);
        resolve(this.releaser());
      };
      const gaveUp = () => {
        const at = this.waiting.indexOf(granted);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(null);
      };
      this.waiting.push(granted);
      signal.addEventListener('abort', gaveUp, { once: true });
    });
  }

  /** Releases once however often it is called; the slot passes straight to the next in line. */
  private releaser(): () => void {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
