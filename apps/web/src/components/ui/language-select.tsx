import { NativeSelect } from '@mantine/core';
import { LANGUAGE_NAMES, LANGUAGES, isLanguage, type Language } from '@floorhand/contract/i18n';

export interface LanguageSelectProps {
  label: string;
  description: string;
  /** What "no language of its own" is called here ("Device default" in My Account). */
  unsetLabel: string;
  value: Language | null;
  onChange(value: Language | null): void;
  'data-testid'?: string;
}

/**
 * A choice of the screen's language, or none (null: the next in line decides, contract pickLanguage):
 * the workstation's in the machine settings, the account's in My Account. Each language is named in
 * itself ("Español"), so a person finds theirs whatever the screen shows now. A native select: the
 * phone's own picker on a handheld, and its value is the language code.
 */
export function LanguageSelect({ label, description, unsetLabel, value, onChange, 'data-testid': testId }: LanguageSelectProps) {
  return (
    <NativeSelect
      label={label}
      description={description}
      data={[{ value: '', label: unsetLabel }, ...LANGUAGES.map((lang) => ({ value: lang, label: LANGUAGE_NAMES.get(lang) ?? lang }))]}
      value={value ?? ''}
      onChange={(e) => {
        const chosen = e.currentTarget.value;
        onChange(isLanguage(chosen) ? chosen : null);
      }}
      size="md"
      maw={420}
      data-testid={testId}
    />
  );
}
