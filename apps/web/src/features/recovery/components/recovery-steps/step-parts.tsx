import { Banner } from '../../../../components/banner';
import type { RecoveryFlow } from '../../state/use-recovery-flow';

/** The step's notice and error, above its fields. */
export function StepBanners({ flow }: { flow: RecoveryFlow }) {
  const { info, error } = flow.state;
  return (
    <>
      {info ? <Banner tone="info">{info}</Banner> : null}
      {error ? <Banner tone="danger">{error}</Banner> : null}
    </>
  );
}

/** Back to the choice of how to prove the account is yours. */
export function TryAnotherWay({ flow }: { flow: RecoveryFlow }) {
  return (
    <button type="button" className="link-btn" onClick={flow.reset} disabled={flow.state.busy}>
      Try another way
    </button>
  );
}
