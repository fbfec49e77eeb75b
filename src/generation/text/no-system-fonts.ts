// Pictures draw with the bundled fonts and the operator's (fonts.ts), never with whatever
// the host has installed: the same picture on every machine, and no scan and mapping of
// the system's fonts in each drawing thread. Read by the canvas library when it loads:
// thread.ts imports this module before drawer.ts, whose imports load the library.
process.env.DISABLE_SYSTEM_FONTS_LOAD = '1'
