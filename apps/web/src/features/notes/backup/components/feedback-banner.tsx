import { Banner } from '../../../../components/banner';

/** What the last export or import came to, shown under its form. */
export type Feedback = { tone: 'success' | 'info' | 'warning' | 'danger'; text: string } | null;

export function FeedbackBanner({ feedback }: { feedback: Feedback }) {
  return feedback ? <Banner tone={feedback.tone}>{feedback.text}</Banner> : null;
}
