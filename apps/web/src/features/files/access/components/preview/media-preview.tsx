import { useState } from 'react';
import { MessagePanel } from './message-panel';

export interface MediaPreviewProps {
  kind: 'video' | 'audio';
  url: string;
  name: string;
}

/** A decrypted video or audio file, played from its object URL by the browser's own player. */
export function MediaPreview({ kind, url, name }: MediaPreviewProps) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <MessagePanel title="Playback not available">
        This {kind} format cannot be played in this browser. Download the file to view it.
      </MessagePanel>
    );
  }
  // The browser's own element, <video> or <audio>, with the matching class.
  const Player = kind;
  return (
    <Player
      className={`preview__${kind}`}
      src={url}
      controls
      preload="metadata"
      aria-label={name}
      onError={() => setFailed(true)}
    />
  );
}
