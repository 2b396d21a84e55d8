import { useEffect, useState } from 'react';
import { Box, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconPrinter } from '@tabler/icons-react';
import { PrintLabelButton } from '../../../components/labels/print-label-button.tsx';

/** The staff label: 2.25 x 1.25 inch, a common size for badge labels on desktop label printers. */
export const STAFF_LABEL = { widthIn: 2.25, heightIn: 1.25 } as const;
/** Preview scale: a label inch is this many CSS pixels on screen. */
const PX_PER_IN = 144;

/** The badge code as a Code 128 SVG; the encoder is loaded on demand (utils/badge-svg.ts). */
export async function badgeSvg(code: string): Promise<string> {
  return (await import('../utils/badge-svg.ts')).badgeSvg(code);
}

function useBadgeSvg(code: string): { svg: string | null; error: string | null } {
  const [state, setState] = useState<{ svg: string | null; error: string | null }>({ svg: null, error: null });
  useEffect(() => {
    let live = true;
    badgeSvg(code).then(
      (svg) => live && setState({ svg, error: null }),
      (e: unknown) => live && setState({ svg: null, error: String(e) }),
    );
    return () => {
      live = false;
    };
  }, [code]);
  return state;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Prints the label alone, at its real size, from a hidden frame. */
function printLabel(svg: string, name: string, org: string): void {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'position:fixed;width:0;height:0;border:0;';
  document.body.append(frame);
  const doc = frame.contentDocument!;
  doc.open();
  doc.write(`<!doctype html><html><head><title>${escapeHtml(name)}</title><style>
    @page { size: ${STAFF_LABEL.widthIn}in ${STAFF_LABEL.heightIn}in; margin: 0 }
    body { margin: 0; width: ${STAFF_LABEL.widthIn}in; height: ${STAFF_LABEL.heightIn}in; font-family: sans-serif; display: flex; flex-direction: column; align-items: center; justify-content: center; }
    .n { font-weight: 700; font-size: 11pt; } .o { font-size: 7pt; } svg { width: 1.9in; height: auto; max-height: 0.7in; }
  </style></head><body><div class="n">${escapeHtml(name)}</div><div class="o">${escapeHtml(org)}</div>${svg}</body></html>`);
  doc.close();
  frame.contentWindow!.focus();
  frame.contentWindow!.print();
  setTimeout(() => frame.remove(), 60_000);
}

export interface StaffLabelProps {
  /** With it, the badge also prints on the label printer (the staff label template). */
  accountId?: string;
  badgeCode: string;
  name: string;
  org: string;
}

/** A printable preview of the staff label: name, organisation and the badge code as Code 128. */
export function StaffLabel({ accountId, badgeCode, name, org }: StaffLabelProps) {
  const { t } = useTranslation();
  const { svg, error } = useBadgeSvg(badgeCode);
  return (
    <Stack gap="sm" align="flex-start">
      <Paper
        withBorder
        shadow="xs"
        radius="sm"
        p={8}
        data-testid="staff-label"
        style={{
          width: STAFF_LABEL.widthIn * PX_PER_IN,
          maxWidth: '100%',
          aspectRatio: `${STAFF_LABEL.widthIn} / ${STAFF_LABEL.heightIn}`,
          background: 'white',
          color: 'black',
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          overflow: 'hidden',
        }}
      >
        <Text fw={700} size="md" lh={1.2} lineClamp={1}>
          {name}
        </Text>
        <Text size="xs" lh={1.2} lineClamp={1}>
          {org}
        </Text>
        {svg ? (
          <Box
            data-testid="badge-barcode"
            style={{ width: '88%', marginTop: 4 }}
            dangerouslySetInnerHTML={{ __html: svg.replace('<svg ', '<svg style="width:100%;height:auto;max-height:96px" ') }}
          />
        ) : (
          <Text size="xs" c={error ? 'red' : 'dimmed'}>
            {error ? t('The badge code cannot be drawn as Code 128') : t('Drawing the barcode…')}
          </Text>
        )}
      </Paper>
      <Group>
        <Button variant="default" leftSection={<IconPrinter size={20} />} disabled={!svg} onClick={() => svg && printLabel(svg, name, org)}>
          {t('Print label')}
        </Button>
        {accountId && (
          <PrintLabelButton
            kind="staff"
            source={{ accountIds: [accountId] }}
            label={t('Print on label printer')}
            testId="print-staff-label"
          />
        )}
      </Group>
    </Stack>
  );
}
