/** Texts of the assistance and care screens (the fields' labels come from the resource definitions). */
export const assistanceZh = {
  play: '播放',
  playTitle: '播放:{title}',
};

export const assistanceEn: typeof assistanceZh = {
  play: 'Play',
  playTitle: 'Playing: {title}',
};
