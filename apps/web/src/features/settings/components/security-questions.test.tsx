import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TEST_VAULT, json } from '../../../testing/fake-server';
import { renderSettings, settingsServer } from '../testing/settings-harness';

const QUESTIONS = [
  'What was the name of your first pet?',
  'In which city were you born?',
  'What is your favourite book?',
];
const ANSWERS = ['Rex the Dog', 'Lyon', 'Dune'];

describe('Settings › Security questions', () => {
  it('counts characters live against the minimum and refuses incomplete pairs with the spec message', async () => {
    const app = await renderSettings('/settings?tab=security');
    const form = await screen.findByRole('form', { name: 'Security questions' });
    const q1 = within(form).getByLabelText('Question 1');
    expect(within(form).getAllByText('0/10')).toHaveLength(3);
    expect(within(form).getAllByText('0/3')).toHaveLength(3);
    await app.user.type(q1, '  Who are you?  ');
    // Trimmed: "Who are you?" is 12 characters.
    expect(within(form).getByText('12/10')).toBeTruthy();
    await app.user.type(within(form).getByLabelText('Answer 1'), 'me');
    expect(within(form).getByText('2/3')).toBeTruthy();

    await app.user.click(within(form).getByRole('button', { name: 'Save questions' }));
    expect(
      await screen.findByText(
        'Please provide 3 complete security questions with answers (questions min 10 chars, answers min 3 chars)',
      ),
    ).toBeTruthy();
    expect(app.server.calls('POST /api/auth/recovery/setup-questions')).toEqual([]);
    expect(app.crypto.accountCalls).toEqual([]);
  });

  it('hashes the answers on the device and sends only the questions, a fresh salt and answersAuth; then shows the set-up state', async () => {
    let saved: string[] = [];
    const server = settingsServer()
      .on('GET /api/auth/security-questions', () => json(200, { questions: saved }))
      .on('POST /api/auth/recovery/setup-questions', (req) => {
        saved = (req.body as { questions: { question: string }[] }).questions.map((q) => q.question);
        return json(204);
      });
    const app = await renderSettings('/settings?tab=security', server);
    const form = await screen.findByRole('form', { name: 'Security questions' });
    for (let i = 0; i < 3; i++) {
      await app.user.type(within(form).getByLabelText(`Question ${i + 1}`), ` ${QUESTIONS[i]} `);
      await app.user.type(within(form).getByLabelText(`Answer ${i + 1}`), ANSWERS[i]!);
    }
    await app.user.click(within(form).getByRole('button', { name: 'Save questions' }));

    expect(await screen.findByText('Security questions saved.')).toBeTruthy();
    const [call] = server.calls('POST /api/auth/recovery/setup-questions');
    const body = call?.body as {
      questions: { question: string }[];
      questionsSalt: string;
      answersAuth: string;
    };
    expect(body.questions).toEqual(QUESTIONS.map((question) => ({ question })));
    expect(body.questionsSalt).toMatch(/^[0-9a-f]{32}$/);
    expect(body.answersAuth).toBe('a'.repeat(64));
    expect(Object.keys(body).sort()).toEqual(['answersAuth', 'questions', 'questionsSalt']);
    for (const answer of ANSWERS) expect(JSON.stringify(body)).not.toContain(answer);
    expect(app.crypto.accountCalls).toEqual([
      { op: 'deriveRecoveryAnswersAuth', args: [ANSWERS, body.questionsSalt, TEST_VAULT.kdfParams] },
    ]);

    const list = await screen.findByRole('list', { name: 'Your security questions' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(QUESTIONS);
    await app.user.click(screen.getByRole('button', { name: 'Update Questions' }));
    const again = await screen.findByRole('form', { name: 'Security questions' });
    expect((within(again).getByLabelText('Question 2') as HTMLInputElement).value).toBe(QUESTIONS[1]);
    expect((within(again).getByLabelText('Answer 2') as HTMLInputElement).value).toBe('');
    await app.user.click(within(again).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Update Questions' })).toBeTruthy();
  });

  it("a failed save says 'Failed to save security questions'", async () => {
    const server = settingsServer().on('POST /api/auth/recovery/setup-questions', () => json(500));
    const app = await renderSettings('/settings?tab=security', server);
    const form = await screen.findByRole('form', { name: 'Security questions' });
    for (let i = 0; i < 3; i++) {
      await app.user.type(within(form).getByLabelText(`Question ${i + 1}`), QUESTIONS[i]!);
      await app.user.type(within(form).getByLabelText(`Answer ${i + 1}`), ANSWERS[i]!);
    }
    await app.user.click(within(form).getByRole('button', { name: 'Save questions' }));
    expect(await screen.findByText('Failed to save security questions')).toBeTruthy();
  });
});
