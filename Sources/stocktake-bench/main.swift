// placeholder until the command lands
