// Listeners for one stream of values that must not lose what happens before anyone listens: an
// extension's note or `submit` during load arrives before the mode subscribes. Values emitted
// before the first listener are kept (the newest `limit`) and replayed to it, in order; from then
// on each value goes to the listeners subscribed when it is emitted.
export class Replaying<T> {
  private readonly listeners = new Set<(value: T) => void>();
  /** Null once the first listener has had them. */
  private early: T[] | null = [];

  /**
   * `onError` receives what a listener throws, so one broken listener cannot break the emitter or
   * the others; without it the error propagates to the caller of `emit`.
   */
  constructor(
    private readonly limit: number,
    private readonly onError?: (error: unknown, value: T) => void,
  ) {}

  on(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    const early = this.early;
    this.early = null;
    if (early) for (const value of early) this.call(listener, value);
    return () => this.listeners.delete(listener);
  }

  emit(value: T): void {
    if (this.early) {
      this.early.push(value);
      if (this.early.length > this.limit) this.early.shift();
      return;
    }
    for (const listener of this.listeners) this.call(listener, value);
  }

  private call(listener: (value: T) => void, value: T): void {
    if (!this.onError) return listener(value);
    try {
      listener(value);
    } catch (error) {
      this.onError(error, value);
    }
  }
}
