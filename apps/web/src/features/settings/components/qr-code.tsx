import { useEffect, useState } from 'react';
import { Spinner } from '../../../components/spinner';

/**
 * The otpauth URL as a QR code, drawn in the browser by the `qrcode` package (an SVG image from a
 * data: URL): the secret never goes to a third-party image service.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  // Keyed by the value it was drawn for, so a new URL shows the spinner until its image is ready.
  const [drawn, setDrawn] = useState<{ value: string; src: string | null } | null>(null);

  useEffect(() => {
    let live = true;
    // Loaded on first use: only the 2FA setup needs the encoder, so it stays out of the main bundle.
    import('qrcode')
      .then(({ default: QRCode }) =>
        QRCode.toString(value, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 200 }),
      )
      .then(
        (svg) => {
          if (live) setDrawn({ value, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
        },
        () => {
          if (live) setDrawn({ value, src: null });
        },
      );
    return () => {
      live = false;
    };
  }, [value]);

  if (drawn?.value !== value) return <Spinner label="Drawing QR code" />;
  if (!drawn.src) {
    return <p className="settings-hint">The QR code could not be drawn: enter the key below instead.</p>;
  }
  return (
    <img className="qr-code" src={drawn.src} alt={label} width={200} height={200} data-testid="totp-qr" />
  );
}
