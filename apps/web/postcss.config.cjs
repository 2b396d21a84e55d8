module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
    'postcss-simple-vars': {
      variables: {
        'mantine-breakpoint-xs': '30em',
        'mantine-breakpoint-sm': '37.5em',
        'mantine-breakpoint-md': '64em',
        'mantine-breakpoint-lg': '90em',
        'mantine-breakpoint-xl': '120em',
      },
    },
  },
};
