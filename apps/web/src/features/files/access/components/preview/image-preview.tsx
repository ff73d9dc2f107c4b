import { useRef, useState, type CSSProperties } from 'react';
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

/** Room kept around the image inside the stage (its padding), in CSS pixels. */
const STAGE_PADDING = 24;

/**
 * A decrypted image from its object URL, with zoom (25% to 400%) and rotation (90° per click).
 * 100% is the image fitted into the stage (never enlarged past its own size). Once the image has
 * loaded, zoom and rotation size a frame around it, so a zoomed or turned picture scrolls
 * instead of being cut off; before that (or where nothing is measured) a CSS transform is used.
 */
export function ImagePreview({ fileId, url, name }: ImagePreviewProps) {
  const [zoom, setZoom] = useState<number>(IMAGE_ZOOM.initial);
  const [rotation, setRotation] = useState(0);
  const [fit, setFit] = useState<{ width: number; height: number } | null>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const zoomBy = (delta: number) =>
    setZoom((z) => Math.min(IMAGE_ZOOM.max, Math.max(IMAGE_ZOOM.min, z + delta)));

  const measure = (img: HTMLImageElement) => {
    const stage = stageRef.current;
    if (!stage || !img.naturalWidth || !img.naturalHeight) return;
    const roomW = stage.clientWidth - 2 * STAGE_PADDING;
    const roomH = stage.clientHeight - 2 * STAGE_PADDING;
    if (roomW <= 0 || roomH <= 0) return;
    const scale = Math.min(1, roomW / img.naturalWidth, roomH / img.naturalHeight);
    setFit({ width: img.naturalWidth * scale, height: img.naturalHeight * scale });
  };

  // Set through the CSSOM (React's style prop), which the CSP allows; no style attribute in markup.
  let frameStyle: CSSProperties | undefined;
  let imgStyle: CSSProperties;
  if (fit) {
    const width = (fit.width * zoom) / 100;
    const height = (fit.height * zoom) / 100;
    const sideways = rotation % 180 !== 0;
    frameStyle = { width: sideways ? height : width, height: sideways ? width : height };
    imgStyle = { width, height, transform: `translate(-50%, -50%) rotate(${rotation}deg)` };
  } else {
    imgStyle = { transform: `scale(${zoom / 100}) rotate(${rotation}deg)` };
  }

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
      <div className="preview__stage" ref={stageRef}>
        <div className={fit ? 'preview__frame preview__frame--fitted' : 'preview__frame'} style={frameStyle}>
          <img
            className="preview__img"
            src={url}
            alt={name}
            data-zoom={zoom}
            data-rotation={rotation}
            style={imgStyle}
            onLoad={(e) => measure(e.currentTarget)}
            onError={() =>
              window.dispatchEvent(
                new CustomEvent<ReloadImagePreviewDetail>(RELOAD_IMAGE_PREVIEW_EVENT, { detail: { fileId } }),
              )
            }
          />
        </div>
      </div>
    </div>
  );
}
