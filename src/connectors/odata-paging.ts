// Reading every page of an OData query: client paging by $top/$skip windows, the server's next links
// followed inside a window, and the checks that catch a server that ignores $skip, repeats a next link
// or sends fewer records than it announced.
import { ConnectorError } from './connector-error.js';
import type { ODataQuery, ODataRecord } from './odata-wire.js';

export interface ODataPage {
  records: ODataRecord[];
  /** The total the server announced ($inlinecount / $count), on the first page of a query. */
  count?: number;
  /** Absolute, resolved against the configured base URL. */
  nextLink?: string;
  url: string;
}

export interface PagingOptions {
  /** $top per request, at most 5000 on SAP. */
  pageSize: number;
  /** Key properties, to notice a server that ignores $skip. */
  keyFields?: readonly string[];
}

export type PageReader = (entitySet: string, query: ODataQuery | { nextLink: string }) => Promise<ODataPage>;

export async function* sequentialPages(getPage: PageReader, entitySet: string, query: ODataQuery, paging: PagingOptions): AsyncGenerator<ODataPage> {
  const top = paging.pageSize;
  let skip = 0;
  let expected: number | undefined;
  let received = 0;
  let previousFirstKey: string | undefined;
  for (let window = 0; ; window++) {
    let page = await getPage(entitySet, { ...query, top, skip, count: window === 0 });
    if (window === 0) expected = page.count;
    const firstKey = paging.keyFields && page.records[0] ? JSON.stringify(paging.keyFields.map((f) => page.records[0][f])) : undefined;
    if (window > 0 && firstKey !== undefined && firstKey === previousFirstKey) {
      throw new ConnectorError('protocol', `${entitySet} answers every $skip with the same records: the server ignores $skip`);
    }
    previousFirstKey = firstKey;
    let inWindow = 0;
    const seenLinks = new Set<string>();
    for (;;) {
      inWindow += page.records.length;
      const next = page.nextLink;
      yield page;
      if (!next) break;
      if (seenLinks.has(next)) throw new ConnectorError('protocol', `${entitySet} sent the same next link twice: ${next}`);
      seenLinks.add(next);
      page = await getPage(entitySet, { nextLink: next });
    }
    received += inWindow;
    // Fewer than $top: the end. More: the server ignored $top and sent everything there is.
    if (inWindow !== top) break;
    if (expected !== undefined && received >= expected) break;
    skip += inWindow;
  }
  if (expected !== undefined && received < expected) {
    throw new ConnectorError(
      'incomplete',
      `${entitySet}: the server announced ${expected} records but sent ${received} (records changed during paging?); the watermark stays, the next run reads them again`,
    );
  }
}

/** Keeps one `next()` of the source in flight while the consumer handles the value it got. */
export async function* prefetching<T>(source: AsyncGenerator<T>): AsyncGenerator<T> {
  let pending = source.next();
  try {
    for (;;) {
      const result = await pending;
      if (result.done) return;
      pending = source.next();
      yield result.value;
    }
  } finally {
    // The consumer stopped early (or failed): the prefetch may still settle; nobody waits for it.
    pending.catch(() => undefined);
    source.return(undefined).catch(() => undefined);
  }
}
