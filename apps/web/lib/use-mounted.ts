import { useSyncExternalStore } from 'react';

const noop = () => () => {};

/** false on the server and while hydrating, true afterwards: wallet UI renders only after mount. */
export function useMounted(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
