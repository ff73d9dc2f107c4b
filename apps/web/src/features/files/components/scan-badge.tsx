import type { FileDto } from '@vault/contracts';

/**
 * What the server's scan of an end-to-end encrypted file can and cannot say
 * (docs/architecture.md "Virus scanning of end-to-end encrypted files"): it checks that the stored object's size and chunk
 * framing match what was declared, and runs ClamAV over the stored bytes, which are ciphertext.
 * So the badge never says 'clean': it says 'Checked' and, in its description, what was checked.
 */
export const SCAN_TEXT = {
  pending: {
    label: 'Scanning…',
    description: 'The server has not finished checking the stored copy of this file yet.',
  },
  clean: {
    label: 'Checked',
    description:
      "Checked by the server: the stored object's size and chunk framing match the upload, and no known " +
      'malware signature was found in its stored, encrypted bytes. The contents themselves are end-to-end ' +
      'encrypted, so the server cannot examine them.',
  },
  infected: {
    label: 'Infected',
    description: 'The server found a known malware signature in the stored bytes of this file.',
  },
  error: {
    label: 'Check failed',
    description:
      'The stored object did not match its declared size or chunk framing, or the check could not run.',
  },
  unknown: {
    label: 'Not checked',
    description: 'The server gave no usable result for this file.',
  },
} as const;

export type ScanState = keyof typeof SCAN_TEXT;

/** Spec section 4: not scanned shows scanning; then clean, infected, error, or another value (unknown). */
export function scanState(dto: Pick<FileDto, 'virusScanned' | 'virusScanResult'>): ScanState {
  const result = dto.virusScanResult as string;
  if (result === 'infected') return 'infected';
  if (!dto.virusScanned || result === 'pending') return 'pending';
  if (result === 'clean' || result === 'error') return result;
  return 'unknown';
}

/** The card's scan badge: a short word, and what it means in the title (and for screen readers). */
export function ScanBadge({ dto }: { dto: Pick<FileDto, 'virusScanned' | 'virusScanResult'> }) {
  const state = scanState(dto);
  const text = SCAN_TEXT[state];
  return (
    <span className={`scan-badge scan-badge--${state}`} title={text.description}>
      <ScanGlyph state={state} />
      {text.label}
      <span className="visually-hidden">: {text.description}</span>
    </span>
  );
}

function ScanGlyph({ state }: { state: ScanState }) {
  const common = {
    viewBox: '0 0 24 24',
    width: 13,
    height: 13,
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 2,
    strokeLinecap: 'round' as const,
    strokeLinejoin: 'round' as const,
    'aria-hidden': true,
  };
  if (state === 'pending') {
    return (
      <svg {...common} className="scan-badge__spin">
        <path d="M21 12a9 9 0 1 1-3-6.7" />
      </svg>
    );
  }
  if (state === 'clean') {
    return (
      <svg {...common}>
        <path d="M12 3 5 6v5c0 4.5 3 8.3 7 10 4-1.7 7-5.5 7-10V6z" />
        <path d="m9 12 2 2 4-4" />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <path d="M12 3 2 20h20z" />
      <path d="M12 10v4M12 17h.01" />
    </svg>
  );
}
