package parser

//go:generate bash generate.sh
