import { TEST_RUNNER_LIMITS } from '@vault/contracts';

// CSI (colours, cursor moves), OSC (titles, links) and the other two-character escapes.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;
// What is left of control characters after the escapes (a tab stays).
// eslint-disable-next-line no-control-regex -- as above
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** One output line as a run keeps it: no escapes or control characters, at most lineCharsMax characters. */
export function cleanLine(raw: string, max: number = TEST_RUNNER_LIMITS.lineCharsMax): string {
  const text = raw.replace(ANSI, '').replace(CONTROL, '');
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  // Never end on half of a surrogate pair.
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * Splits one stream's text (already decoded, as chunks arrive) into cleaned lines. A line that never
 * ends is not kept whole in memory: past lineCharsMax the rest of it is skipped until its newline.
 */
export class LineSplitter {
  private partial = '';
  private skipping = false;

  constructor(private readonly max: number = TEST_RUNNER_LIMITS.lineCharsMax) {}

  push(chunk: string): string[] {
    const parts = chunk.split('\n');
    const lines: string[] = [];
    for (let i = 0; i < parts.length - 1; i += 1) {
      lines.push(this.take(parts[i]!));
      this.skipping = false;
    }
    this.add(parts.at(-1)!);
    return lines;
  }

  /** The last line, when the stream ended without a newline. */
  end(): string[] {
    const rest = this.partial || this.skipping ? [this.take('')] : [];
    this.skipping = false;
    return rest;
  }

  private add(text: string): void {
    if (this.skipping) return;
    this.partial += text;
    // Escapes are removed later, so keep some room for them before cutting.
    if (this.partial.length > this.max * 4) {
      this.partial = this.partial.slice(0, this.max * 4);
      this.skipping = true;
    }
  }

  private take(text: string): string {
    this.add(text);
    const line = cleanLine(this.partial, this.max);
    this.partial = '';
    return line;
  }
}
