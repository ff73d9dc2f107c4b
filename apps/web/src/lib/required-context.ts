import { createContext, useContext } from 'react';

/**
 * A context that has no default: its hook throws `missingMessage` when called outside the
 * provider, so a forgotten provider fails loudly at the first render instead of passing null on.
 */
export function createRequiredContext<T>(missingMessage: string) {
  const Context = createContext<T | null>(null);
  const useRequired = (): T => {
    const value = useContext(Context);
    if (!value) throw new Error(missingMessage);
    return value;
  };
  return { Provider: Context.Provider, use: useRequired };
}
