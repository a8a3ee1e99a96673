import { useLayoutEffect, useState } from 'react';

/**
 * The parameters a link carries in its fragment (`#token=…`, `#code=…`): a fragment never reaches a server or its
 * logs. Read once, then removed from the address bar and the history before anything is drawn, so the secret is
 * not bookmarked, shared, synced or seen over a shoulder.
 */
export function useLinkFragment(): URLSearchParams {
  const [fragment] = useState(() => new URLSearchParams(window.location.hash.slice(1)));
  useLayoutEffect(() => {
    if (!window.location.hash) return;
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
  }, []);
  return fragment;
}
