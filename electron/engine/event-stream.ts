/**
 * One job's stream of events (a run's, a comparison's) with any number of listeners. A
 * listener that throws harms neither the producer nor the other listeners; onError hears
 * about it.
 */
export class EventStream<E> {
  readonly #listeners = new Set<(event: E) => void>();
  readonly #onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void = () => undefined) {
    this.#onError = onError;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: (event: E) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  emit(event: E): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
