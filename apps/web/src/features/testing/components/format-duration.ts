/** "850 ms", "12.4 s", "2 min 5 s": what the cards and the recent results show. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const totalSeconds = Math.round(ms / 1000);
  const seconds = totalSeconds % 60;
  return `${Math.floor(totalSeconds / 60)} min${seconds ? ` ${seconds} s` : ''}`;
}
