import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n, loadBackOfficeTexts } from '../../i18n';
import { CHANGES, changeDetail, changeTitle, kindOf } from './activity-rows';

const t = i18next.t.bind(i18next);

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});

describe('activity rows', () => {
  it('call asset changes as the changelog does, naming the other side of a relation', () => {
    expect(changeTitle({ routingKey: 'asset.created.v1', data: {} }, t)).toBe('Created');
    const added = {
      routingKey: 'asset.added-to-application.v1',
      data: { position: 3 },
      applicationName: 'Avatar Hub',
      userEmail: null,
    };
    expect(changeTitle(added, t)).toBe('Added to Avatar Hub at position 3');
  });

  it('call the other kinds’ changes by name, and every change the filter offers has one', () => {
    expect(changeTitle({ routingKey: 'tag.renamed.v1', data: {} }, t)).toBe('Renamed');
    expect(changeTitle({ routingKey: 'user.role-changed.v1', data: {} }, t)).toBe('Role changed');
    for (const routingKey of CHANGES) {
      expect(changeTitle({ routingKey, data: {} }, t)).not.toBe(routingKey);
      expect(t(`activity.kinds.${kindOf(routingKey)}`)).not.toMatch(/^activity\./);
    }
    // A change of a newer server than this client: its routing key, not a blank.
    expect(changeTitle({ routingKey: 'tag.merged.v1', data: {} }, t)).toBe('tag.merged.v1');
  });

  it('say what changed: a name or a role from → to, fields of an update, sessions ended', () => {
    const renamed = { changes: { name: { from: 'Vintage', to: 'Retro' } } };
    expect(changeDetail({ routingKey: 'tag.renamed.v1', data: renamed }, t)).toBe(
      'Name: Vintage → Retro',
    );
    const role = { changes: { role: { from: 'user', to: 'developer' } } };
    expect(changeDetail({ routingKey: 'user.role-changed.v1', data: role }, t)).toBe(
      'Role: user → developer',
    );
    const email = { changes: { email: { from: 'a@example.com', to: 'b@example.com' } } };
    expect(changeDetail({ routingKey: 'user.email-changed.v1', data: email }, t)).toBe(
      'E-mail: a@example.com → b@example.com',
    );
    const update = {
      changes: { description: { from: 'a', to: 'b' }, tagIds: { from: [], to: ['t1'] } },
    };
    expect(changeDetail({ routingKey: 'asset.updated.v1', data: update }, t)).toBe(
      'Description: a → b; Tags',
    );
    expect(changeDetail({ routingKey: 'user.sessions-ended.v1', data: { ended: 2 } }, t)).toBe(
      '2 sessions',
    );
    expect(changeDetail({ routingKey: 'tag.created.v1', data: { name: 'Retro' } }, t)).toBeNull();
  });
});
