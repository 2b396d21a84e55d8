import { ActionIcon, Badge, Box, Button, Drawer, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCloudUpload, IconWifi, IconWifiOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ERR } from '@floorhand/contract/errors';
import { useConnection } from '../../lib/offline/connection.ts';
import { currentPersonId, dismissItem, replayOutbox, useOutbox } from '../../lib/offline/outbox.ts';
import type { OutboxItem } from '../../lib/offline/replay.ts';
import { showTimestamp } from '../../lib/inventory-format.ts';

/**
 * The header's connection indicator (issue 27): online, offline or reconnecting, with the number of
 * actions waiting to be sent, at every width; it opens the outbox list.
 */
export function ConnectionIndicator() {
  const { t } = useTranslation();
  const state = useConnection((s) => s.state);
  const items = useOutbox((s) => s.items);
  const [open, drawer] = useDisclosure(false);
  const waiting = items.filter((i) => i.state !== 'refused').length;
  const refused = items.filter((i) => i.state === 'refused' && i.person.accountId === currentPersonId()).length;
  const stateText = state === 'online' ? t('Online') : state === 'offline' ? t('Offline') : t('Reconnecting');
  const label = [
    stateText,
    waiting ? t('{{count}} actions waiting to be sent', { count: waiting }) : '',
    refused ? t('{{count}} refused', { count: refused }) : '',
  ]
    .filter(Boolean)
    .join(', ');
  const color = state === 'online' ? undefined : state === 'offline' ? 'red' : 'orange';
  return (
    <>
      <Box pos="relative" data-testid="connection-indicator" data-state={state} data-waiting={waiting} data-refused={refused}>
        <ActionIcon
          variant={state === 'online' ? 'transparent' : 'filled'}
          color={color}
          c={state === 'online' ? 'inherit' : undefined}
          size={44}
          aria-label={label}
          title={label}
          onClick={drawer.open}
        >
          {state === 'offline' ? (
            <IconWifiOff size={26} />
          ) : state === 'reconnecting' ? (
            <IconCloudUpload size={26} />
          ) : (
            <IconWifi size={26} />
          )}
        </ActionIcon>
        {(waiting > 0 || refused > 0) && (
          <Badge
            size="sm"
            circle
            color={refused ? 'red' : 'dark'}
            pos="absolute"
            top={0}
            right={0}
            style={{ pointerEvents: 'none' }}
            aria-hidden
          >
            {waiting || refused}
          </Badge>
        )}
      </Box>
      <Drawer opened={open} onClose={drawer.close} position="right" size="md" title={stateText} data-testid="outbox-drawer">
        <OutboxList items={items} />
      </Drawer>
    </>
  );
}

/** What to do about a refused replay, by the reason the server gave. */
function whatToDo(item: OutboxItem, t: (k: string) => string): string {
  switch (item.error?.code) {
    case ERR.conflict:
      return t('The record changed before this reached the server. Look it up again and do it again if it is still needed.');
    case ERR.notFound:
      return t('It is no longer there. Check with your supervisor.');
    case ERR.forbidden:
      return t('You may not do this now. Ask your supervisor.');
    default:
      return t('Check it on the screen and do it again if it is still needed.');
  }
}

/** The outbox: what waits, and what the server refused with its reason, this person's first. */
export function OutboxList({ items }: { items: OutboxItem[] }) {
  const { t } = useTranslation();
  const me = currentPersonId();
  const mine = items.filter((i) => i.person.accountId === me);
  const others = items.length - mine.length;
  return (
    <Stack gap="sm" data-testid="outbox-list">
      {mine.length === 0 && <Text>{t('Nothing is waiting to be sent.')}</Text>}
      {mine.map((item) => (
        <Box
          key={item.id}
          p="xs"
          style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
          data-testid="outbox-item"
          data-state={item.state}
        >
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {item.label}
            </Text>
            <Badge color={item.state === 'refused' ? 'red' : item.state === 'signIn' ? 'orange' : 'gray'} style={{ flexShrink: 0 }}>
              {item.state === 'refused' ? t('Refused') : item.state === 'signIn' ? t('Sign in again') : t('Queued')}
            </Badge>
          </Group>
          <Text size="sm">{showTimestamp(item.deviceTime)}</Text>
          {item.state === 'refused' && (
            <>
              <Text size="sm" c="red">
                {item.error?.message}
              </Text>
              <Text size="sm">{whatToDo(item, t)}</Text>
              <Button mt="xs" size="md" variant="default" onClick={() => void dismissItem(item.id)}>
                {t('Dismiss')}
              </Button>
            </>
          )}
          {item.state === 'signIn' && <Text size="sm">{t('The server wants you to sign in again; this is sent once you have.')}</Text>}
        </Box>
      ))}
      {others > 0 && <Text size="sm">{t('{{count}} actions of other people on this device are waiting.', { count: others })}</Text>}
      {items.some((i) => i.state === 'queued') && (
        <Button size="md" onClick={() => void replayOutbox()}>
          {t('Send now')}
        </Button>
      )}
    </Stack>
  );
}
