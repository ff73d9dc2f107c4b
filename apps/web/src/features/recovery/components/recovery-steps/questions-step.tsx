import { TextField } from '../../../../components/input';
import type { RecoveryQuestions } from '../../api/recovery';
import type { RecoveryFlow } from '../../state/use-recovery-flow';
import { StepForm } from './step-parts';

/** The account's security questions; the answers are checked on the device (only a derived key is sent). */
export function QuestionsStep({ flow, questions }: { flow: RecoveryFlow; questions: RecoveryQuestions }) {
  const { answers, busy } = flow.state;
  return (
    <StepForm
      flow={flow}
      onSubmit={flow.submitAnswers}
      submitLabel="Verify answers"
      busyLabel="Checking answers..."
    >
      {questions.questions.map((q, i) => (
        <TextField
          key={q + String(i)}
          label={q}
          name={`answer-${i}`}
          autoComplete="off"
          value={answers[i] ?? ''}
          onChange={(e) => flow.setAnswer(i, e.target.value)}
          disabled={busy}
          autoFocus={i === 0}
        />
      ))}
    </StepForm>
  );
}
