import { messageOf } from '../lib/api-client';
import { ErrorBanner } from './banner';
import { Button } from './button';

/**
 * The end of a keyset-paged list (lib/use-cursor-list): why the last 'Load more' failed, and the
 * button while there is more.
 */
export function LoadMore({
  list,
  failText,
  className,
}: {
  list: { hasMore: boolean; loadingMore: boolean; moreError: unknown; loadMore: () => void };
  failText: string;
  className?: string;
}) {
  return (
    <>
      {list.moreError ? <ErrorBanner error={messageOf(list.moreError, failText)} /> : null}
      {list.hasMore ? (
        <div className={className}>
          <Button
            variant="secondary"
            onClick={list.loadMore}
            loading={list.loadingMore}
            loadingLabel="Loading..."
          >
            Load more
          </Button>
        </div>
      ) : null}
    </>
  );
}
