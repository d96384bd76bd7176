package hugobuild

// MenuWindow is the most entries of one section a page's menu lists, and
// the page size of a section's paginated listing. A folder of n pages
// would otherwise put n links in the menu of each of its n pages (a site
// growing with n²); with a window, a page's menu lists the window of its
// section holding it and links to the section's listing, paginated by the
// same size, so the menu's link lands on the listing page of that window.
// The theme reads it as params.docweave.MenuWindow.
const MenuWindow = 100

// paginationPath is the path segment of a listing's later pages
// (<section>/page/2/), Hugo's default, set explicitly because the theme
// builds links to them (params.docweave.paginationPath).
const paginationPath = "page"

// AddMenuWindow puts the window and the pagination settings into a Hugo
// configuration and its params.docweave.
func AddMenuWindow(cfg, docweave map[string]any) {
	docweave["MenuWindow"] = MenuWindow
	docweave["paginationPath"] = paginationPath
	cfg["pagination"] = map[string]any{"pagerSize": MenuWindow, "path": paginationPath}
}
