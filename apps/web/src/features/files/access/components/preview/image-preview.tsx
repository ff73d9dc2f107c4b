import { useState } from 'react';
import { Button } from '../../../../../components/button';

/** Spec section 9, "Image zoom: 25 to 400 percent, step 25, default 100; rotate 90 degrees per click". */
export const IMAGE_ZOOM = { min: 25, max: 400, step: 25, initial: 100 } as const;
export const ROTATE_STEP = 90;

/** Dispatched on window when a preview image fails to load from its blob URL; `detail.fileId` names the file. */
export const RELOAD_IMAGE_PREVIEW_EVENT = 'reload-image-preview';

export interface ReloadImagePreviewDetail {
  fileId: string;
}

export interface ImagePreviewProps {
  fileId: string;
  url: string;
  name: string;
}

/** A decrypted image from its object URL, with zoom (25% to 400%) and rotation (90° per click). */
export function ImagePreview({ fileId, url, name }: ImagePreviewProps) {
  const [zoom, setZoom] = useState<number>(IMAGE_ZOOM.initial);
  const [rotation, setRotation] = useState(0);
  const zoomBy = (delta: number) =>
    setZoom((z) => Math.min(IMAGE_ZOOM.max, Math.max(IMAGE_ZOOM.min, z + delta)));

  return (
    <div className="preview__image">
      <div className="preview__tools" role="toolbar" aria-label="Image controls">
        <Button
          variant="secondary"
          size="sm"
          onClick={() => zoomBy(-IMAGE_ZOOM.step)}
          disabled={zoom <= IMAGE_ZOOM.min}
          aria-label="Zoom out"
        >
          −
        </Button>
        <output className="preview__zoom" aria-live="polite" aria-label="Zoom level">
          {zoom}%
        </output>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => zoomBy(IMAGE_ZOOM.step)}
          disabled={zoom >= IMAGE_ZOOM.max}
          aria-label="Zoom in"
        >
          +
        </Button>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => setZoom(IMAGE_ZOOM.initial)}
          disabled={zoom === IMAGE_ZOOM.initial}
        >
          Reset
        </Button>
        <Button variant="secondary" size="sm" onClick={() => setRotation((r) => (r + ROTATE_STEP) % 360)}>
          Rotate
        </Button>
      </div>
      <div className="preview__stage">
        <img
          className="preview__img"
          src={url}
          alt={name}
          data-rotation={rotation}
          // Set through the CSSOM (React's style prop), which the CSP allows; no style attribute in markup.
          style={{ transform: `scale(${zoom / 100}) rotate(${rotation}deg)` }}
          onError={() =>
            window.dispatchEvent(
              new CustomEvent<ReloadImagePreviewDetail>(RELOAD_IMAGE_PREVIEW_EVENT, { detail: { fileId } }),
            )
          }
        />
      </div>
    </div>
  );
}
