/* The manual's static files (assets.c). */
#ifndef GISA_MANUAL_ASSETS_H
#define GISA_MANUAL_ASSETS_H
extern const char man_style_css[];
extern const char man_search_js[];
#endif
