import { useState, type KeyboardEvent } from 'react';
import { ActionIcon, TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconBarcode } from '@tabler/icons-react';
import { createWedgeJoiner, SCAN_FIELD_ATTRIBUTE } from '../../lib/scanning/keyboard-wedge.ts';
import { scanBus, UNKNOWN_FORMAT } from '../../lib/scanning/scan-bus.ts';
import { openScanner } from '../../lib/scanning/scanner-store.ts';

export type ScanInputProps = Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange' | 'rightSection'> & {
  /** Keep the camera overlay open after each read (counting screens). */
  continuous?: boolean;
};

/**
 * A field to type or wedge-scan into, with a button that opens the camera scanner. Enter publishes
 * the text on scanBus with source 'input' and clears the field, so the screen receives every scan
 * through useScans whether it was typed here, wedged anywhere (the scan router) or read by the camera. A Tab that ends a burst at scanner speed counts as Enter: scanners are
 * often set to send Tab, and it must not move the focus away. A burst at scanner speed never gets
 * here: the scan router (keyboard-wedge.ts) reads it wherever the focus is, gives the field back what
 * it held and swallows its Enter; what this field publishes is what a person typed. Marked
 * data-scan-field, for screens that put the focus back in it.
 */
export function ScanInput({ continuous, onKeyDown, ...props }: ScanInputProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  // The field holds every key typed into it, so a stalled burst is still whole here: no tail rule.
  const [joiner] = useState(() => createWedgeJoiner({ minLength: 1, quietMs: 0 }));

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    onKeyDown?.(e);
    const fast =
      joiner.feed({
        key: e.key,
        timeStamp: e.timeStamp,
        targetIsInput: false,
        ctrlKey: e.ctrlKey,
        altKey: e.altKey,
        metaKey: e.metaKey,
        repeat: e.repeat,
      }) !== null;
    if (e.key !== 'Enter' && !(e.key === 'Tab' && fast)) return;
    const text = value.trim();
    if (!text) return;
    e.preventDefault();
    setValue('');
    scanBus.publish({ text, format: UNKNOWN_FORMAT, source: 'input' });
  };

  return (
    <TextInput
      placeholder={t('Scan or type, then Enter')}
      autoComplete="off"
      autoCapitalize="off"
      spellCheck={false}
      enterKeyHint="go"
      {...{ [SCAN_FIELD_ATTRIBUTE]: '' }}
      {...props}
      value={value}
      onChange={(e) => setValue(e.currentTarget.value)}
      onKeyDown={onKey}
      rightSectionWidth={52}
      rightSection={
        <ActionIcon
          size={44}
          variant="subtle"
          aria-label={t('Scan with the camera')}
          data-testid="scan-input-camera"
          onClick={() => openScanner({ continuous })}
        >
          <IconBarcode size={24} />
        </ActionIcon>
      }
    />
  );
}
