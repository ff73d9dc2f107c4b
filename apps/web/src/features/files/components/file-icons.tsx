import type { ReactNode, SVGProps } from 'react';
import type { FileKind } from '../utils/file-format';

type IconProps = SVGProps<SVGSVGElement>;

const base = (p: IconProps): IconProps => ({
  viewBox: '0 0 24 24',
  width: 24,
  height: 24,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.7,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
  ...p,
});

/** A file icon component from its SVG shapes; `sheet` draws them on the page with a folded corner. */
function fileIcon(shapes: ReactNode, sheet = false) {
  return function FileIconShape(p: IconProps) {
    return (
      <svg {...base(p)}>
        {sheet ? (
          <>
            <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
            <path d="M14 3v5h5" />
          </>
        ) : null}
        {shapes}
      </svg>
    );
  };
}

const sheetIcon = (shapes?: ReactNode) => fileIcon(shapes, true);

const TYPE_ICONS: Record<FileKind, (p: IconProps) => ReactNode> = {
  image: fileIcon(
    <>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="9" cy="10" r="1.8" />
      <path d="m21 16-5-5-9 9" />
    </>,
  ),
  pdf: sheetIcon(
    <path d="M8.5 17v-4h1.3a1.3 1.3 0 0 1 0 2.6H8.5M13 13v4h1a2 2 0 0 0 0-4zM17.5 13h-1.7v4M15.8 15h1.4" />,
  ),
  text: sheetIcon(<path d="M8.5 12.5h7M8.5 15.5h7M8.5 18.5h4" />),
  document: sheetIcon(<path d="m8 12.5 1.2 5 1.8-4 1.8 4 1.2-5" />),
  spreadsheet: sheetIcon(<path d="M8 12h8v6H8zM8 15h8M12 12v6" />),
  archive: sheetIcon(
    <>
      <path d="M11 4v2M12 7v2M11 10v2M12 13v2" />
      <rect x="10" y="15" width="3" height="3" rx="0.8" />
    </>,
  ),
  video: fileIcon(
    <>
      <rect x="3" y="5" width="13" height="14" rx="2" />
      <path d="m16 10 5-3v10l-5-3" />
    </>,
  ),
  audio: fileIcon(
    <>
      <path d="M9 18V6l11-2v12" />
      <circle cx="6.5" cy="18" r="2.5" />
      <circle cx="17.5" cy="16" r="2.5" />
    </>,
  ),
  other: sheetIcon(),
};

/** The card's icon for a file type (spec section 2: 'icon by type'). */
export function FileTypeIcon({ kind, ...p }: IconProps & { kind: FileKind }) {
  const TypeIcon = TYPE_ICONS[kind] ?? TYPE_ICONS.other;
  return <TypeIcon {...p} />;
}

export const UploadIcon = fileIcon(
  <>
    <path d="M12 16V4M7 9l5-5 5 5" />
    <path d="M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
  </>,
);

export const DownloadIcon = fileIcon(
  <>
    <path d="M12 4v12M7 11l5 5 5-5" />
    <path d="M4 18v1a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-1" />
  </>,
);

export const PreviewIcon = fileIcon(
  <>
    <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
    <circle cx="12" cy="12" r="3" />
  </>,
);

export const SearchIcon = fileIcon(
  <>
    <circle cx="11" cy="11" r="6.5" />
    <path d="m16 16 4 4" />
  </>,
);
