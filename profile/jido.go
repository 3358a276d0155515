package profile

// Jido is the default profile: jido's own catalogue, names and shapes, with no mapping.
var Jido = register(&Profile{
	Name:  Default,
	About: "jido's own catalogue (the canonical tools)",
})
