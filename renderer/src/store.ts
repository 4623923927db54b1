// Small observable values for state that several screens share, read in components with useStore.
import { useEffect, useState } from 'preact/hooks';

export class Store<T> {
  #value: T;
  readonly #listeners = new Set<(value: T) => void>();
  constructor(value: T) {
    this.#value = value;
  }
  get(): T {
    return this.#value;
  }
  set(value: T): void {
    if (Object.is(value, this.#value)) return;
    this.#value = value;
    for (const l of [...this.#listeners]) l(value);
  }
  update(change: (value: T) => T): void {
    this.set(change(this.#value));
  }
  subscribe(listener: (value: T) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

export function useStore<T>(store: Store<T>): T {
  const [value, setValue] = useState(() => store.get());
  useEffect(() => {
    setValue(store.get());
    return store.subscribe(setValue);
  }, [store]);
  return value;
}
