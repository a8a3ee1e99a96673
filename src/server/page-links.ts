import type { FastifyReply } from 'fastify';
/** Where the pages beside a list page start, as cursors a client sends back (null: none). */
export interface PageCursors {
  nextCursor: string | null;
  prevCursor: string | null;
}

/**
 * The pages beside a list page as headers (RFC 8288 `Link`, and `X-Next-Cursor` / `X-Prev-Cursor` for clients that read no Link):
 * the request's own URL with `after` (next) or `before` (previous) in place of its paging, so filters and sort stay.
 */
export function pageLinks(reply: FastifyReply, requestUrl: string, cursors: PageCursors): void {
  const links: string[] = [];
  const to = (field: 'after' | 'before', cursor: string) => {
    const url = new URL(requestUrl, 'http://x');
    for (const paging of ['after', 'before', 'offset']) url.searchParams.delete(paging);
    url.searchParams.set(field, cursor);
    return `${url.pathname}${url.search}`;
  };
  if (cursors.nextCursor) {
    reply.header('x-next-cursor', cursors.nextCursor);
    links.push(`<${to('after', cursors.nextCursor)}>; rel="next"`);
  }
  if (cursors.prevCursor) {
    reply.header('x-prev-cursor', cursors.prevCursor);
    links.push(`<${to('before', cursors.prevCursor)}>; rel="prev"`);
  }
  if (links.length > 0) reply.header('link', links.join(', '));
}
