import { useTranslation } from 'react-i18next';
import '../components/plain-colors.css';

/** The icon-credit link the icon licence asks for: at the foot of the page, never over content. Plain elements: the login page shows it without Mantine. */
export function Watermark() {
  const { t } = useTranslation();
  return (
    <div data-credit style={{ textAlign: 'right', marginTop: 32 }}>
      <a
        href="https://tabler.io/icons"
        target="_blank"
        rel="noreferrer"
        style={{ display: 'inline-flex', alignItems: 'center', minHeight: 44, fontSize: 12, color: 'var(--fh-plain-dimmed)' }}
      >
        {t('Icons by Tabler')}
      </a>
    </div>
  );
}
