import { useState } from 'react';
import { Button } from '../../../components/button';
import { downloadFile } from '../../../lib/download-file';

/** Copies text; the async Clipboard API where allowed, else a hidden textarea and execCommand. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Fall through to the textarea (permission refused, insecure context).
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'visually-hidden';
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** Copy and Download buttons with a polite "Copied" status. */
export function CopyDownload({
  copyLabel,
  text,
  fileName,
  fileBody,
  onDownload = downloadFile,
}: {
  copyLabel: string;
  text: string;
  fileName: string;
  fileBody: () => string;
  onDownload?: (fileName: string, body: string) => void;
}) {
  const [status, setStatus] = useState<string | null>(null);
  return (
    <div className="settings-actions">
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          void copyText(text).then((ok) =>
            setStatus(ok ? 'Copied to clipboard' : 'Copy failed: select the text'),
          );
        }}
      >
        {copyLabel}
      </Button>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          onDownload(fileName, fileBody());
          setStatus(`Saved ${fileName}`);
        }}
      >
        Download (.txt)
      </Button>
      <span className="settings-hint" role="status">
        {status}
      </span>
    </div>
  );
}

/** The backup codes, shown once, with Copy and Download. */
export function BackupCodesPanel({
  codes,
  fileName,
  fileBody,
  onDone,
  onDownload,
}: {
  codes: string[];
  fileName: string;
  fileBody: () => string;
  onDone: () => void;
  onDownload?: (fileName: string, body: string) => void;
}) {
  return (
    <div className="secret-panel" aria-label="Your backup codes" role="group">
      <p className="settings-hint">
        Save these {codes.length} backup codes somewhere safe. Each one signs you in once when your
        authenticator app is not at hand. They are shown only now.
      </p>
      <ol className="backup-codes" data-testid="backup-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <CopyDownload
        copyLabel="Copy codes"
        text={codes.join('\n')}
        fileName={fileName}
        fileBody={fileBody}
        {...(onDownload ? { onDownload } : {})}
      />
      <div>
        <Button onClick={onDone}>I have saved my codes</Button>
      </div>
    </div>
  );
}
