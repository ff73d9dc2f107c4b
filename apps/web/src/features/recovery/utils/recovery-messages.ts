/** Spec sections 5 and 8 ("Recovery"), and the texts of the steps this app adds (recovery key, new password). */
export const RECOVERY_TEXT = {
  emailRequired: 'Please enter your email address',
  code: 'Please enter the 6-digit recovery code',
  answersRequired: 'Please answer all security questions',
  noQuestions: 'No security questions found for this account. Try email recovery instead.',
  sendFailed: 'Failed to send recovery email',
  invalidCode: 'Invalid recovery code',
  questionsFailed: 'Failed to load security questions',
  incorrectAnswers: 'Incorrect answers',
  keyFormat: 'Please enter your recovery key (52 characters, dashes optional)',
  invalidKey: 'Invalid recovery key',
  verified: 'Verification successful. You have 10 minutes to set a new password.',
  expired: 'This recovery has expired or was already used. Please start again.',
  confirmNewKey: 'Please confirm that you understand your existing notes and files stay locked',
  resetFailed: 'Failed to reset your password',
  invalidTotp: 'Invalid verification code',
} as const;

/** Spec section 9: after recovery the user has 10 minutes (the bypass token's lifetime). */
export const RECOVERY_WINDOW_MINUTES = 10;
