// Single flight: concurrent callers asking for the same key while a call for it is pending share that call's
// promise instead of starting their own; the first call after it settles starts anew. Nothing is kept once a call
// settles, so this is no cache: it spares duplicate work (an upstream read, a file fetch) in flight at once.

export class SingleFlight<K, V> {
  readonly #pending = new Map<K, Promise<V>>();

  /** The pending call for `key`, or `call()` started now and shared until it settles. */
  run(key: K, call: () => Promise<V>): Promise<V> {
    const pending = this.#pending.get(key);
    if (pending) return pending;
    let started: Promise<V>;
    try {
      started = call();
    } catch (err) {
      // Thrown before it returned a promise: nothing is pending, so nothing may be kept for the key.
      return Promise.reject(err);
    }
    const shared = started.finally(() => this.#pending.delete(key));
    this.#pending.set(key, shared);
    return shared;
  }

  /** Calls pending now. */
  get size(): number {
    return this.#pending.size;
  }
}
