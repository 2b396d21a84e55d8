import { useState } from 'react';
import { Alert, Box, Button, Card, ColorInput, FileButton, Group, Image, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconPhotoUp } from '@tabler/icons-react';
import { FAVICON_SIZES } from '@floorhand/contract/constants';
import { BRAND_COLORS, BRAND_DEFAULTS, brandSchema, type BrandColor, type BrandData } from '@floorhand/contract/site-admin';
import { SaveBar } from '../../../components/ui/save-bar.tsx';
import { adminKeys } from '../../../lib/call-mutation.ts';
import { useSaveBrand } from '../api/save-brand.ts';
import { siteDataQuery } from '../../../lib/site-data.ts';
import { brandIconUrl, brandLogoUrl } from '../../../lib/brand-assets.ts';
import { useSiteStore, type Brand } from '../../../lib/site-store.ts';
import { uploadFavicons, uploadLogo } from '../api/upload-brand-images.ts';
import { tk } from '@floorhand/contract/i18n';
import { tIssues } from '../../../lib/translate-text.ts';

const COLOR_LABELS: Record<BrandColor, string> = {
  primary: tk('Primary'),
  secondary: tk('Secondary'),
  accent: tk('Accent'),
  dark: tk('Dark (screen saver)'),
  positive: tk('Positive'),
  negative: tk('Negative'),
  info: tk('Info'),
  warning: tk('Warning'),
  headFg: tk('Header text'),
  headBg: tk('Header background'),
  clickPrimary: tk('Buttons'),
  clickSecondary: tk('Secondary buttons'),
};

/** The stored brand, completed with the defaults where it lacks something (older data, or none yet). */
function toForm(data: Record<string, unknown> | undefined): BrandData {
  const d = (data ?? {}) as Partial<BrandData>;
  return { ...BRAND_DEFAULTS, ...d, colors: { ...BRAND_DEFAULTS.colors, ...d.colors } };
}

function Editor({ initial, rev }: { initial: BrandData; rev: number | undefined }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const site = useSiteStore();
  const [brand, setBrand] = useState<BrandData>(initial);
  const [busy, setBusy] = useState<'logo' | 'icon' | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const save = useSaveBrand({
    done: t('The brand is saved'),
    // The theme, header, favicon and screen saver follow the site store at once.
    onSuccess: (res) => res.siteData && site.set({ brand: res.siteData.data as Brand }),
  });
  const check = brandSchema.safeParse(brand);
  const problems = check.success ? [] : tIssues(check.error.issues);
  const dirty = JSON.stringify(brand) !== JSON.stringify(initial);

  const uploadWith = async (kind: 'logo' | 'icon', file: File | null) => {
    if (!file) return;
    setBusy(kind);
    setUploadError(null);
    try {
      if (kind === 'logo') setBrand({ ...brand, logo: { mediaId: await uploadLogo(file) } });
      else setBrand({ ...brand, favIcon: await uploadFavicons(file) });
    } catch (e) {
      setUploadError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('Site name')}
          description={t('On the screen saver and the header')}
          value={brand.siteName}
          maxLength={60}
          onChange={(e) => setBrand({ ...brand, siteName: e.currentTarget.value })}
          data-testid="brand-site-name"
        />
        <TextInput
          label={t('Title')}
          description={t('Browser tab and login page')}
          value={brand.title}
          maxLength={60}
          onChange={(e) => setBrand({ ...brand, title: e.currentTarget.value })}
        />
      </SimpleGrid>

      <Card withBorder>
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('Logo')}
          </Title>
          <Group wrap="wrap" align="center">
            <Box p="xs" style={{ background: brand.colors.dark, borderRadius: 8 }}>
              <Image
                src={brandLogoUrl(brand, site.orgId)}
                w={272}
                maw="100%"
                h={50}
                fit="contain"
                alt={t('Logo')}
                data-testid="brand-logo-preview"
              />
            </Box>
            <FileButton onChange={(f) => void uploadWith('logo', f)} accept="image/png,image/jpeg,image/webp,image/svg+xml">
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  leftSection={<IconPhotoUp size={20} />}
                  loading={busy === 'logo'}
                  data-testid="upload-logo"
                >
                  {t('Upload logo')}
                </Button>
              )}
            </FileButton>
          </Group>
          <Text size="xs" c="dimmed">
            {t('Shown at 272 x 50 on the screen saver and the login page; a wide picture on a transparent background works best.')}
          </Text>
        </Stack>
      </Card>

      <Card withBorder>
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('Favicon')}
          </Title>
          <Group wrap="wrap" align="flex-end" gap="sm" data-testid="favicon-preview">
            {FAVICON_SIZES.map((size) => {
              const mediaId = brand.favIcon?.[String(size) as `${typeof size}`]?.mediaId;
              return (
                <Stack key={size} gap={2} align="center">
                  {mediaId && site.siteId && site.orgId ? (
                    <Image
                      src={brandIconUrl(site.siteId, site.orgId, mediaId, size)}
                      w={Math.min(size, 64)}
                      h={Math.min(size, 64)}
                      alt=""
                    />
                  ) : (
                    <Box w={Math.min(size, 64)} h={Math.min(size, 64)} bg="gray.2" />
                  )}
                  <Text size="xs" c="dimmed">
                    {size}
                  </Text>
                </Stack>
              );
            })}
            <FileButton onChange={(f) => void uploadWith('icon', f)} accept="image/png,image/jpeg,image/webp,image/svg+xml">
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  leftSection={<IconPhotoUp size={20} />}
                  loading={busy === 'icon'}
                  data-testid="upload-favicon"
                >
                  {t('Upload icon')}
                </Button>
              )}
            </FileButton>
          </Group>
          <Text size="xs" c="dimmed">
            {t('One square picture becomes the six sizes browsers and home screens use: 16, 32, 48, 64, 128 and 192 px.')}
          </Text>
        </Stack>
      </Card>

      {uploadError && <Alert color="red">{uploadError}</Alert>}

      <Card withBorder>
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('Colours')}
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
            {BRAND_COLORS.map((c) => (
              <ColorInput
                key={c}
                label={t(COLOR_LABELS[c])}
                format="hex"
                value={brand.colors[c]}
                onChange={(v) => setBrand({ ...brand, colors: { ...brand.colors, [c]: v } })}
                size="md"
                eyeDropperButtonProps={{ 'aria-label': t('Pick the colour for {{what}} from the screen', { what: t(COLOR_LABELS[c]) }) }}
                data-testid={`brand-color-${c}`}
              />
            ))}
          </SimpleGrid>
          <Box p="sm" style={{ background: brand.colors.headBg, color: brand.colors.headFg, borderRadius: 8 }}>
            <Text fw={700}>{brand.siteName}</Text>
          </Box>
        </Stack>
      </Card>

      <SaveBar
        problems={problems}
        dirty={dirty}
        saving={save.isPending}
        busy={!!busy}
        saveLabel={t('Save brand')}
        saveTestId="save-brand"
        onSave={() => check.success && save.mutate({ siteData: { _rev: rev, data: check.data } })}
        onDiscard={() => void qc.invalidateQueries({ queryKey: adminKeys.siteData('brand', 'brand') }).then(() => setBrand(initial))}
      />
    </Stack>
  );
}

/** The site's brand: names, logo, favicon and the twelve colours. */
export function BrandAdmin() {
  const { t } = useTranslation();
  const q = useQuery(siteDataQuery('brand', 'brand'));
  if (q.isError) return <Alert color="red">{t('The brand could not be loaded.')}</Alert>;
  if (!q.data?.siteData) return <Text c="dimmed">{t('Loading…')}</Text>;
  const { siteData } = q.data;
  return <Editor key={`${siteData._rev ?? 0}`} initial={toForm(siteData.data)} rev={siteData._rev} />;
}
