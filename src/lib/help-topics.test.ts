import { describe, expect, it } from 'vitest';
import { HELP_TOPICS } from '../../contract/profile-choices.ts';
import { helpTopics } from './help-topics';

describe('the help topics', () => {
  it('name exactly the topics the API accepts', () => {
    expect(helpTopics.map(({ id }) => id)).toEqual([...HELP_TOPICS]);
  });
});
