#!/usr/bin/env node
console.log("hi from meridian bin", process.argv.slice(2))
