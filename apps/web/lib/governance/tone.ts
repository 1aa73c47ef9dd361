/** How an option is coloured in results: For/Yes, Against/No, Abstain, or any other option. */
export type Tone = 'for' | 'against' | 'abstain' | 'other';

export const toneOf = (option: string): Tone => {
  const o = option.trim().toLowerCase();
  return o === 'for' || o === 'yes'
    ? 'for'
    : o === 'against' || o === 'no'
      ? 'against'
      : o === 'abstain'
        ? 'abstain'
        : 'other';
};
