import { Button } from '../../components/button';
import { AlertIcon } from '../../components/icons';

/** Shown when a route throws while rendering. */
export function RouteError() {
  return (
    <div className="gate" role="alert">
      <div className="gate__card">
        <span className="gate__icon gate__icon--danger" aria-hidden="true">
          <AlertIcon width={28} height={28} />
        </span>
        <h1 className="gate__title">Something went wrong</h1>
        <p>The page could not be shown. Reloading usually helps; your vault is safe.</p>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </div>
    </div>
  );
}
