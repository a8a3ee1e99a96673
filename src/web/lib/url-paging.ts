import { useSearchParams } from 'react-router';

/** Where the pages beside the one shown start (keyset paging, ADR 017), as `apiPage` reads them. */
interface PageCursors {
  nextCursor: string | null;
  prevCursor: string | null;
}

/**
 * A list whose filters and page live in the URL (so back, forward and a shared link show the same page): `go`
 * changes filters (an empty value removes one) and starts at page 1; Next and Previous carry the cursor the shown
 * page came with, so a deep page costs what the first does. `current` is the page shown, undefined while the one
 * shown is still the one before (its cursors are not this page's).
 */
export function useUrlPaging(page: number, current: PageCursors | undefined) {
  const [params, setParams] = useSearchParams();
  const go = (
    filters: Record<string, string | undefined>,
    toPage = 1,
    cursor?: readonly ['after' | 'before', string],
  ) => {
    const next = new URLSearchParams(params);
    const set = (name: string, value: string | undefined) => (value ? next.set(name, value) : next.delete(name));
    for (const [name, value] of Object.entries(filters)) set(name, value);
    set('page', toPage > 1 ? String(toPage) : undefined);
    next.delete('after');
    next.delete('before');
    if (cursor && toPage > 1) next.set(cursor[0], cursor[1]);
    setParams(next);
  };
  const goNext = () => go({}, page + 1, current?.nextCursor ? ['after', current.nextCursor] : undefined);
  const goPrevious = () =>
    go({}, page - 1, page > 2 && current?.prevCursor ? ['before', current.prevCursor] : undefined);
  return { params, go, goNext, goPrevious };
}
