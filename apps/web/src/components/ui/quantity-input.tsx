import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Text, TextInput } from '@mantine/core';
import { MIN_TOUCH_TARGET_PX } from '@floorhand/contract/constants';
import { wholeUnitsOnly } from '@floorhand/contract/quantity';

export interface QuantityInputProps {
  label: string;
  /** The typed text, as typed: read it with readQtyInput (lib/inventory-format.ts), which takes "1,5" as 1.5 where the screen's language writes a decimal comma (Spanish). */
  value: string;
  onChange(text: string): void;
  /** The item's unit of measure: shown beside the field; a whole-units-only unit (EA, BOX, …) gets a keypad without a separator. */
  uom?: string | null;
  error?: string;
  placeholder?: string;
  disabled?: boolean;
  /**
   * A quantity prompt (after a scan asked for it): the field takes the focus with its proposed value
   * selected, so digits replace it, Enter confirms (the form's submit) and Escape calls onCancel.
   */
  prompt?: { onCancel(): void };
  'data-testid'?: string;
}

/**
 * The one quantity field of every form that takes a quantity: free text (so a keyboard, a wedge
 * scanner or an Android keypad that offers only a comma can type it), the number pad of the unit
 * (whole numbers for EA, BOX, …; decimals otherwise), the unit beside it and at least a 44 px touch
 * target. Parsing and the rules stay with the caller (readQtyInput, contract stock-rules.ts).
 */
export function QuantityInput({
  label,
  value,
  onChange,
  uom,
  error,
  placeholder,
  disabled,
  prompt,
  'data-testid': testId,
}: QuantityInputProps) {
  const ref = useRef<HTMLInputElement>(null);
  const isPrompt = !!prompt;
  useEffect(() => {
    if (!isPrompt) return;
    // After the render that opened the prompt (a dialog's or a list's focus handling runs first).
    const timer = setTimeout(() => {
      ref.current?.focus();
      ref.current?.select();
    }, 0);
    return () => clearTimeout(timer);
  }, [isPrompt]);
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Escape' || !prompt) return;
    e.preventDefault();
    e.stopPropagation();
    prompt.onCancel();
  };
  return (
    <TextInput
      ref={ref}
      onKeyDown={onKeyDown}
      label={label}
      placeholder={placeholder}
      inputMode={wholeUnitsOnly(uom) ? 'numeric' : 'decimal'}
      enterKeyHint="done"
      autoComplete="off"
      spellCheck={false}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      disabled={disabled}
      styles={{ input: { minHeight: MIN_TOUCH_TARGET_PX } }}
      rightSection={
        uom ? (
          <Text size="sm" c="dimmed">
            {uom}
          </Text>
        ) : undefined
      }
      rightSectionWidth={48}
      data-testid={testId}
    />
  );
}
