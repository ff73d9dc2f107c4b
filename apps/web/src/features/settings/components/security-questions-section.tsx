import { RECOVERY_LIMITS } from '@vault/contracts';
import { useState, type FormEvent } from 'react';
import { Banner, ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/input';
import { RetryBanner } from '../../../components/retry-banner';
import { SettingsSection } from '../../../components/settings-section';
import { Spinner } from '../../../components/spinner';
import { messageOf } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { useQueryCache } from '../../../lib/query';
import { setupSecurityQuestions, securityQuestionsQueryKey, useSecurityQuestions } from '../api/recovery';
import { useAction } from '../hooks/use-action';
import { useAnswersAuth, useVaultMaterial } from '../hooks/use-account-crypto';
import {
  ANSWER_MIN,
  QUESTION_COUNT,
  QUESTION_MIN,
  SETTINGS_MESSAGES,
  countChars,
  validateQuestions,
  type QuestionPair,
} from '../utils/settings-validation';
import { SettingsForm, SettingsProgress } from './settings-form';

const emptyPairs = (questions: string[] = []): QuestionPair[] =>
  Array.from({ length: QUESTION_COUNT }, (_, i) => ({ question: questions[i] ?? '', answer: '' }));

/** 16 random bytes as hex: the salt of the answers' KDF, new on every save. */
function newQuestionsSalt(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

/**
 * Security questions (spec section 4): not set up → the form; set up → the three questions and
 * 'Update Questions'. The answers are normalised, joined and run through the account KDF in the
 * worker (docs/crypto-protocol.md "Security questions"); only answersAuth and the questions leave the device.
 */
export function SecurityQuestionsSection() {
  const api = useApiClient();
  const cache = useQueryCache();
  const answersAuthOf = useAnswersAuth();
  const material = useVaultMaterial();
  const saved = useSecurityQuestions();
  const [editing, setEditing] = useState(false);
  const [pairs, setPairs] = useState<QuestionPair[]>(emptyPairs);
  const { busy, error, setError, run } = useAction();
  const [success, setSuccess] = useState<string | null>(null);

  const setPair = (index: number, key: keyof QuestionPair, value: string) =>
    setPairs((all) => all.map((p, i) => (i === index ? { ...p, [key]: value } : p)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateQuestions(pairs);
    if (invalid) {
      setError(invalid);
      return;
    }
    await run(SETTINGS_MESSAGES.questionsFailed, async () => {
      const { kdfParams } = await material();
      const questionsSalt = newQuestionsSalt();
      const answersAuth = await answersAuthOf(
        pairs.map((p) => p.answer),
        questionsSalt,
        kdfParams,
      );
      await setupSecurityQuestions(api, {
        questions: pairs.map((p) => ({ question: p.question.trim() })),
        questionsSalt,
        answersAuth,
      });
      setPairs(emptyPairs());
      setEditing(false);
      setSuccess('Security questions saved.');
      cache.invalidate(securityQuestionsQueryKey);
    });
  };

  const description =
    'Three questions that let you regain access to your account. Your answers are hashed on this device and never sent in plain text; they do not decrypt your data (only your password or recovery key do).';

  if (!saved.data) {
    return (
      <SettingsSection title="Security questions" description={description}>
        {saved.status === 'error' ? (
          <RetryBanner onRetry={() => void saved.refetch()}>
            {messageOf(saved.error, 'Failed to load security questions')}
          </RetryBanner>
        ) : (
          <Spinner label="Loading security questions" />
        )}
      </SettingsSection>
    );
  }

  const isSetUp = saved.data.length > 0;
  if (isSetUp && !editing) {
    return (
      <SettingsSection title="Security questions" description={description}>
        <span className="tag tag--success">Set up</span>
        <ol className="settings-list" aria-label="Your security questions">
          {saved.data.map((q, i) => (
            <li key={i}>{q}</li>
          ))}
        </ol>
        {success ? <Banner tone="success">{success}</Banner> : null}
        <div className="settings-actions">
          <Button
            variant="secondary"
            onClick={() => {
              setPairs(emptyPairs(saved.data));
              setSuccess(null);
              setError(null);
              setEditing(true);
            }}
          >
            Update Questions
          </Button>
        </div>
      </SettingsSection>
    );
  }

  return (
    <SettingsSection title="Security questions" description={description}>
      <SettingsForm label="Security questions" onSubmit={submit}>
        {pairs.map((pair, i) => (
          <div key={i} className="question-pair">
            <TextField
              label={`Question ${i + 1}`}
              value={pair.question}
              maxLength={RECOVERY_LIMITS.questionMax}
              onChange={(e) => setPair(i, 'question', e.target.value)}
              disabled={busy}
              hint={<Counter value={pair.question} min={QUESTION_MIN} />}
            />
            <TextField
              label={`Answer ${i + 1}`}
              value={pair.answer}
              autoComplete="off"
              maxLength={200}
              onChange={(e) => setPair(i, 'answer', e.target.value)}
              disabled={busy}
              hint={<Counter value={pair.answer} min={ANSWER_MIN} />}
            />
          </div>
        ))}
        {busy ? <SettingsProgress>Hashing your answers on this device...</SettingsProgress> : null}
        <ErrorBanner error={error} />
        <div className="settings-actions">
          <Button type="submit" loading={busy} loadingLabel="Saving...">
            Save questions
          </Button>
          {isSetUp ? (
            <Button variant="secondary" onClick={() => setEditing(false)} disabled={busy}>
              Cancel
            </Button>
          ) : null}
        </div>
      </SettingsForm>
    </SettingsSection>
  );
}

/** "12/10": trimmed characters against the minimum. */
function Counter({ value, min }: { value: string; min: number }) {
  const n = countChars(value);
  return (
    <span className={n >= min ? 'counter counter--ok' : 'counter'}>
      {n}/{min}
      <span className="visually-hidden">
        {n >= min ? ' characters, enough' : ` characters, at least ${min} needed`}
      </span>
    </span>
  );
}
