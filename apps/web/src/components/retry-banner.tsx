import type { ReactNode } from 'react';
import { Banner } from './banner';
import { Button } from './button';

/** A failed load: the danger banner with its reason and a Retry button that asks again. */
export function RetryBanner({
  title,
  onRetry,
  children,
}: {
  title?: ReactNode;
  onRetry: () => void;
  children?: ReactNode;
}) {
  return (
    <Banner
      tone="danger"
      title={title}
      action={
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Retry
        </Button>
      }
    >
      {children}
    </Banner>
  );
}
